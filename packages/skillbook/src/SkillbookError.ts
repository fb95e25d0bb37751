import type { SkillbookErrorCode, SkillbookErrorInfo } from './types.ts';

/**
 * A refused document or batch, thrown by {@link Skillbook.fromJSON} (the value-returning
 * `Skillbook.parse` and `applyBatch` give the same information as a {@link SkillbookErrorInfo}).
 *
 * @example
 * try {
 *   Skillbook.fromJSON('{"schema_version": "1"}');
 * } catch (e) {
 *   if (e instanceof SkillbookError) console.log(e.code); // 'unsupported_schema_version'
 * }
 */
export class SkillbookError extends Error {
  /** The stable code of the refusal. */
  readonly code: SkillbookErrorCode;
  /** For documents: the JSON path of the offending value (`skills.context-00001.issue`). */
  readonly path?: string;
  /** For batches: the index of the failing operation. */
  readonly opIndex?: number;

  constructor(info: SkillbookErrorInfo, options?: { readonly cause?: unknown }) {
    super(info.message, options);
    this.name = 'SkillbookError';
    this.code = info.code;
    if (info.path !== undefined) this.path = info.path;
    if (info.opIndex !== undefined) this.opIndex = info.opIndex;
  }

  /** The error as a plain, serialisable value. */
  toInfo(): SkillbookErrorInfo {
    return errorInfo(this.code, this.message, { path: this.path, opIndex: this.opIndex });
  }
}

/** Builds a frozen {@link SkillbookErrorInfo}, leaving out absent `path` / `opIndex`. */
export function errorInfo(
  code: SkillbookErrorCode,
  message: string,
  where: { readonly path?: string | undefined; readonly opIndex?: number | undefined } = {},
): SkillbookErrorInfo {
  return Object.freeze({
    code,
    message,
    ...(where.opIndex !== undefined ? { opIndex: where.opIndex } : {}),
    ...(where.path !== undefined ? { path: where.path } : {}),
  });
}
