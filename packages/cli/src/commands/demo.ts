import type { RegisterCommand } from '../CliCommand.ts';

/** `cohort demo`: three scenarios that show what Cohort does, each with the code that ran it. */
export const registerDemo: RegisterCommand = (program, { io, exit }) => {
  program
    .command('demo')
    .description('show what Cohort does: a crash, a timeout and a conflict, each with the code that ran it')
    .action(async () => {
      const { runDemo } = await import('../demo/runDemo.ts');
      exit(await runDemo(io.out));
    });
};
