import { readFileSync } from 'node:fs';

/**
 * The version of this package, read from its package.json (`cohort --version`). The module
 * sits one level below the package root both as source (src/) and compiled (dist/).
 */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : '0.0.0';
}
