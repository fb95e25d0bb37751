export { runCli } from './runCli.ts';
export { createProgram } from './createProgram.ts';
export type { CliContext, RegisterCommand } from './CliCommand.ts';
export type { CliIo, CliOutput } from './CliIo.ts';
export { optionValue, wholeNumber } from './optionValue.ts';
export { startProgress } from './progressBar.ts';
export type { ProgressBar } from './progressBar.ts';
export { SessionTreeView } from './SessionTreeView.ts';
