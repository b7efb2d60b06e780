/** core.stateful as mock.yaml writes it (src/config/schema.json, definitions stateMachine and resourceIdExtractor). */
export interface StatefulOptions {
  enabled: boolean;
  state_machines: StateMachineConfig[];
  /** The byte budget of every machine's resources together; DEFAULT_STATE_STORE_MB when absent. */
  max_store_mb?: number;
}

export interface StateMachineConfig {
  name: string;
  initial_state: string;
  states: StateConfig[];
  resource_id_extract: ResourceIdExtract;
  transitions: TransitionConfig[];
}

export interface StateConfig {
  name: string;
  /** Absent: a transition into this state moves the resource and lets the rest of the chain answer. */
  response?: { status_code?: number; body_template?: unknown };
}

export type ResourceIdExtract =
  | { type: 'path_param'; param: string }
  | { type: 'header'; name: string }
  | { type: 'json_path'; path: string }
  /** The first extractor that yields an id. */
  | { type: 'composite'; extractors: ResourceIdExtract[] };

/** A request transition (method and path_pattern) or a timed one (after: a duration such as 30m). */
export interface TransitionConfig {
  method?: string;
  path_pattern?: string;
  from_state: string;
  to_state: string;
  after?: string;
}
