import { runCli } from './runCli.ts';

process.exitCode = await runCli(process.argv.slice(2), process.stdout);
