export { skillTools } from './skillTools.ts';
export type { SkillToolSet } from './skillTools.ts';
export { runAgent } from './runAgent.ts';
export { streamAgent } from './streamAgent.ts';
export type { AgentStream, AgentTextStream } from './streamAgent.ts';
export { recurseTool, RecurseToolArgs } from './recurseTool.ts';
export type { RecurseTaskResult, RecurseToolResult } from './recurseTool.ts';
export { DEFAULT_MAX_STEPS } from './AgentOptions.ts';
export type { AgentModel, AgentOptions, AgentPrompt, AgentResult, RecurseOptions } from './AgentOptions.ts';
