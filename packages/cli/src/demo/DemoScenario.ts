import type { Session } from '@cohort/runtime';

/** One scenario of `cohort demo`: what it shows, and the root session's body that shows it. */
export interface DemoScenario {
  readonly title: string;
  /** A few lines for someone who has never seen Cohort or ACE. */
  readonly explanation: string;
  /** The root session; the demo prints this function's source before running it. */
  readonly body: (root: Session) => Promise<unknown>;
  /** `import.meta.url` of the module that defines `body`, to print its source. */
  readonly module: string;
}
