import type { RegisterCommand } from '../CliCommand.ts';

/** `cohort demo`: three scenarios that show what Cohort does, each with the code that ran it; `--html` writes their run report. */
export const registerDemo: RegisterCommand = (program, { io, exit }) => {
  program
    .command('demo')
    .description('show what Cohort does: a crash, a timeout and a conflict, each with the code that ran it')
    .option('--html <file>', 'also write the run report of the three scenarios to <file> (one self-contained HTML page)')
    .addHelpText('after', '\nExamples:\n  cohort demo\n  cohort demo --html demo.html\n')
    .action(async (flags: { readonly html?: string }) => {
      const { runDemo } = await import('../demo/runDemo.ts');
      const { code, recording } = await runDemo(io.out);
      if (code !== 0 || flags.html === undefined) return exit(code);
      const { writeHtmlReport } = await import('../report/writeHtmlReport.ts');
      exit(await writeHtmlReport(recording, flags.html, io));
    });
};
