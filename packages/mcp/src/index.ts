/**
 * `@cohort/mcp`: the Skillbook for any MCP client. {@link SkillbookMcp} serves a runtime's
 * book over the Model Context Protocol (official SDK) — reading tools, task tools whose tasks
 * are Cohort sessions, one-shot writes, resources with change notifications — on any transport;
 * {@link serveHttp} puts it on Streamable HTTP behind Origin, Host and token checks;
 * {@link FollowedFileStore} lets a file store notice other writers. See docs/mcp.md.
 */
export { SkillbookMcp } from './SkillbookMcp.ts';
export type { ConnectOptions, McpTransport, SkillbookMcpOptions } from './SkillbookMcp.ts';
export { serveHttp } from './serveHttp.ts';
export { serveStdio } from './serveStdio.ts';
export type { HttpEndpoint, HttpServeOptions } from './serveHttp.ts';
export { FollowedFileStore } from './FollowedFileStore.ts';
export { searchSkills } from './searchSkills.ts';
export type { SkillHit, SkillQuery } from './searchSkills.ts';
export type { TaskResult } from './TaskSession.ts';
export { BOOK_URI, SKILL_URI_PREFIX, skillUri } from './resourceUris.ts';
