/** A group of mismatches of one operation, as the analysis aggregates them: what one explanation is asked for. */
export interface ExplainGroup {
  method: string;
  path: string;
  operation?: string;
  mismatches: ReadonlyArray<{ type: string; field: string; location: string; message: string; severity: string; count?: number }>;
}
