#!/usr/bin/env node
import { runCli } from './runCli.ts';

// `cohort demo | head -5`: when the reader goes away, stop quietly as Unix tools do, instead
// of dying on an unhandled EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

process.exitCode = await runCli(process.argv.slice(2), { out: process.stdout, err: process.stderr });
