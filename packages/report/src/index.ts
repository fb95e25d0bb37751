/**
 * `@cohort/report`: see a Cohort run. Record a run from `rt.events$`, the audit and xstate's
 * inspection events ({@link recordRun}, {@link RunRecorder}, {@link createInspectionTap}),
 * write it as one self-contained HTML report ({@link writeRunReport}), or watch it live in a
 * browser ({@link serveLiveView}). See docs/observability.md.
 */
export { recordRun } from './recordRun.ts';
export type { RecordRunOptions } from './recordRun.ts';
export { RunRecorder } from './RunRecorder.ts';
export type { AttachOptions, RecordableRuntime, RecorderOptions, RecordingChange } from './RunRecorder.ts';
export type { RunProgress, RunTail } from './internal/RunState.ts';
export { recordEvents } from './recordEvents.ts';
export type { LoggedEvent } from './recordEvents.ts';
export { createInspectionTap } from './InspectionTap.ts';
export type { InspectionTap, InspectionTapOptions, MachineStateChange } from './InspectionTap.ts';
export { renderRunReport, writeRunReport } from './writeRunReport.ts';
export { serveLiveView } from './serveLiveView.ts';
export type { LiveView, LiveViewOptions, RunSummary } from './serveLiveView.ts';
export { diffBooks, skillView } from './diffBooks.ts';
export {
  RecordingSchema,
  RunRecordSchema,
  SessionRecordSchema,
  SessionStatusSchema,
  BookDiffSchema,
  SkillViewSchema,
  NoticeRecordSchema,
  MarkSchema,
  SupervisorViewSchema,
  ModelCallRecordSchema,
  ToolCallRecordSchema,
  RECORDING_FORMAT,
  parseRecording,
} from './Recording.ts';
export type {
  Recording,
  RunRecord,
  SessionRecord,
  SessionStatus,
  BookDiff,
  SkillView,
  NoticeRecord,
  Mark,
  SupervisorView,
  ModelCallRecord,
  ToolCallRecord,
} from './Recording.ts';
export type { LiveMessage } from './LiveMessage.ts';
export { boundCall, DEFAULT_MAX_CALL_CHARS } from './RecordingContent.ts';
export type { RecordingContent, CallingSession, ContentMode } from './RecordingContent.ts';
