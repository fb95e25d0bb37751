/**
 * Another program writing the same document the way ACE's `save_to_file` does: the whole
 * file, in place (open, truncate, write), with new content. `cumulative`: like a long-running
 * ACE process, it loads the document once and keeps its own copy, so each write drops what
 * others added meanwhile; `reload`: it loads the document before each change. Prints
 * `WROTE {"id","issue"}` per skill it added, then `DONE`.
 */
import { readFileSync, writeFileSync, writeSync } from 'node:fs';

interface WriterOptions {
  readonly document: string;
  readonly mode: 'cumulative' | 'reload';
  readonly writes: number;
  readonly intervalMs: number;
  readonly prefix: string;
}

type AceDocument = {
  schema_version: string;
  skills: Record<string, Record<string, unknown>>;
  sections: Record<string, string[]>;
  next_id: number;
  similarity_decisions: Record<string, unknown>;
};

function aceTimestamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000+00:00`;
}

function load(path: string): AceDocument {
  for (;;) {
    try {
      return JSON.parse(readFileSync(path, 'utf8')) as AceDocument;
    } catch {
      // caught mid-write by another in-place writer: read again
    }
  }
}

function addSkill(doc: AceDocument, issue: string): string {
  doc.next_id += 1;
  const id = `context-${String(doc.next_id).padStart(5, '0')}`;
  const now = aceTimestamp(Date.now());
  doc.skills[id] = {
    id, section: 'context', keywords: ['external'], issue, insight: `written outside Cohort: ${issue}`, occurrences: [],
    active: true, used_count: 0, helpful_count: 0, harmful_count: 0, neutral_count: 0, created_at: now, updated_at: now,
  };
  (doc.sections['context'] ??= []).push(id);
  return id;
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as WriterOptions;
  let doc = load(options.document);
  for (let i = 0; i < options.writes; i += 1) {
    if (options.mode === 'reload') doc = load(options.document);
    const issue = `${options.prefix}-${i}`;
    const id = addSkill(doc, issue);
    writeFileSync(options.document, JSON.stringify(doc, null, 2));
    writeSync(1, `WROTE ${JSON.stringify({ id, issue })}\n`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
  }
  writeSync(1, 'DONE {"acks":0}\n');
}

void main();
