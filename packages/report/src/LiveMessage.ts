import type { Mark, NoticeRecord, Recording, SessionRecord, SupervisorView } from './Recording.ts';

/**
 * What the live view's page receives on its event stream (`GET /events`, Server-Sent Events):
 * first a `snapshot` of the whole recording, then `patch`es of what changed, at most a few a
 * second. A patch's sessions replace the page's records of the same id; its notices and marks
 * are new ones, appended.
 */
export type LiveMessage =
  | { readonly type: 'snapshot'; readonly recording: Recording }
  | {
      readonly type: 'patch';
      readonly runId: string;
      readonly sessions: readonly SessionRecord[];
      readonly notices: readonly NoticeRecord[];
      readonly marks: readonly Mark[];
      readonly supervisor: SupervisorView | null;
      readonly endedAt: number | null;
    };

/** How the page starts: a report reads the recording embedded in it; a live page subscribes. */
export type PageBoot = { readonly mode: 'report' } | { readonly mode: 'live'; readonly events: string };
