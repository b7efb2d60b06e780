/**
 * The contract between the compiler and the runtime: what a generated build exports and what
 * its code may call. Generated modules import these types as `mock-compiler/contract` (package.json
 * "exports"); the compiler and the runtime import them from here. Types only: nothing to load.
 */
export type {
  AjvError, ApiKeyMeta, BodyMeta, BuildModule, BuildModuleCheck, Candidate, ConditionSpec, ContentEntry, CreateValidators, CustomRouteMeta,
  CallbackMeta, CallbackParameter, ExampleEntry, Match, OperationMeta, OperationResponders, ParamMeta, Render, Responders, ResponseEntry, RouteBehaviourMeta, SecuritySchemeMeta,
  RouteFaultsMeta, RouteFaultTypeMeta, RouteLatencyMeta, RouteResponder, SpecMeta, Terminal, Validate, ValueKind, ValueShape, FieldEncoding, WebhookMeta,
  SequenceEntry, SequenceFraming,
} from './build-module.js';
export type {
  CollectionPrimitives, CompiledPattern, FormatPrimitives, GenRuntime, Generate, NumberPrimitives, PatternPrimitives,
  StringPrimitives,
} from './gen-runtime.js';
export type { TemplateContext, TemplateRuntime } from './template-runtime.js';
