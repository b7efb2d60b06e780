/**
 * WebSocket replay scripts (the spec's "WebSocket replay file", JSON Lines): reading and checking
 * them, writing them (recording, HAR import) and where recorded sessions live, and the message
 * conditions of `waitFor` and of routes' answers. Shared by the WebSocket server and the CLI.
 */
export { messageBytes, messageJson, messageText, type WsMessage } from './message.js';
export { CAPTURE_NAME, compileMessageMatcher, type MessageMatcher } from './message-matcher.js';
export { MAX_CLOSE_REASON_BYTES, ScriptLineError, readScriptLine, sendableCloseCode, templateEscapeOf, type ScriptLineJson, type ScriptStep } from './script-line.js';
export { SCRIPT_VARS, parseScript, scriptProblemLine, type ReplayScript, type ScriptProblem } from './script.js';
export { scriptText } from './script-text.js';
export { SESSION_PREFIX, WEBSOCKET_FIXTURES, addSession, highestSession, scriptFilesBelow, sessionFileName, sessionFiles, sessionFolder } from './session-files.js';
