import type { CaptureAnalysis } from './analyze.js';
import { MISMATCH_TYPES, type MismatchLocation, type MismatchType, type Severity } from './mismatch.js';
import { confidenceOf, isLikely, MIN_SAMPLE, suggestedFix } from './recommend.js';

/** Mismatches of one kind at one place of one operation, across captures. */
export interface MismatchGroup {
  /** The operation (`GET /repos/{owner}/{repo}`), or for an unmatched capture its method and path, ids in it written `{id}` (`GET /v2/owners/{id}`). */
  operation: string;
  type: MismatchType;
  location: MismatchLocation;
  /** The mismatches' JSON pointer, array positions in bodies written as an asterisk segment. */
  field: string;
  keyword: string;
  severity: Severity;
  /** The first capture's message. */
  message: string;
  /** Captures that showed it. */
  count: number;
  /** Captures of the operation. */
  observations: number;
  /** Ids of up to SAMPLE_IDS captures that showed it. */
  capture_ids: string[];
  /** A natural-language explanation, when an explainer (--llm-provider) added one. */
  explanation?: string;
}

/** The recommendation of the group at the same index of `groups`. */
export interface Recommendation {
  operation: string;
  type: MismatchType;
  location: MismatchLocation;
  field: string;
  message: string;
  /** 0–1: the share of the operation's captures that agree, scaled down below min_sample observations. */
  confidence: number;
  /** At least min_sample observations and at least half of them agree. */
  likely: boolean;
  suggested_fix: string;
}

export interface AnalysisReport {
  captures: number;
  /** Captures that routed to an operation. */
  matched: number;
  /** Captures without any mismatch. */
  clean: number;
  mismatches: number;
  by_type: Partial<Record<MismatchType, number>>;
  by_severity: Record<Severity, number>;
  operations: { operation: string; observations: number; mismatches: number }[];
  groups: MismatchGroup[];
  recommendations: Recommendation[];
  min_sample: number;
  /** Groups left out once MAX_GROUPS were kept (their mismatches are still counted). */
  groups_dropped: number;
}

/** Distinct groups kept: the memory of an analysis of any number of captures stays bounded. */
export const MAX_GROUPS = 10_000;
const MAX_OPERATIONS = 10_000;
const SAMPLE_IDS = 5;

/** Array positions in body pointers: the items of a list drift alike, so groups write them `*`. */
const ARRAY_INDEX = /\/\d+(?=\/|$)/g;

/** A path segment that names one thing among many: a number, a UUID, a long hex or base64url token (with a digit: long words are paths). */
const ID_SEGMENT = /^(\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,}|(?=[^/]*\d)[A-Za-z0-9_-]{24,})$/i;

/** An unmatched path with its ids written `{id}`: calls of one missing endpoint group as one. */
const templated = (path: string): string =>
  path
    .split('/')
    .map((segment) => (ID_SEGMENT.test(segment) ? '{id}' : segment))
    .join('/');

const SEVERITY_ORDER: Record<Severity, number> = { high: 0, medium: 1, low: 2 };

/** Analyses folded into groups per operation, JSON pointer and keyword, in bounded memory. */
export class Aggregate {
  private captures = 0;
  private matched = 0;
  private clean = 0;
  private total = 0;
  private dropped = 0;
  private readonly byType = new Map<MismatchType, number>();
  private readonly bySeverity: Record<Severity, number> = { high: 0, medium: 0, low: 0 };
  private readonly operations = new Map<string, { observations: number; mismatches: number }>();
  private readonly groups = new Map<string, MismatchGroup>();

  /** `basePaths`: where the descriptions are served (CaptureAnalyzer.basePaths), so that a suggested path is written as their paths are. */
  constructor(private readonly basePaths: readonly string[] = []) {}

  add(analysis: CaptureAnalysis): void {
    this.captures++;
    if (analysis.operation !== null) this.matched++;
    if (analysis.mismatches.length === 0) this.clean++;
    const operation = analysis.operation ?? `${analysis.method} ${templated(analysis.path)}`;
    let op = this.operations.get(operation);
    if (op === undefined && this.operations.size < MAX_OPERATIONS) this.operations.set(operation, (op = { observations: 0, mismatches: 0 }));
    if (op !== undefined) op.observations++;
    // one capture counts once per group, however many times it breaks the same keyword there
    const seen = new Set<string>();
    for (const m of analysis.mismatches) {
      this.total++;
      this.byType.set(m.type, (this.byType.get(m.type) ?? 0) + 1);
      this.bySeverity[m.severity]++;
      if (op !== undefined) op.mismatches++;
      const field = m.location.endsWith('.body') ? m.field.replace(ARRAY_INDEX, '/*') : m.field;
      const key = `${operation}\u0000${m.type}\u0000${m.location}\u0000${field}\u0000${m.keyword}`;
      if (seen.has(key)) continue;
      seen.add(key);
      let group = this.groups.get(key);
      if (group === undefined) {
        if (this.groups.size >= MAX_GROUPS) {
          this.dropped++;
          continue;
        }
        group = { operation, type: m.type, location: m.location, field, keyword: m.keyword, severity: m.severity, message: m.message, count: 0, observations: 0, capture_ids: [] };
        this.groups.set(key, group);
      }
      group.count++;
      if (analysis.capture_id !== null && group.capture_ids.length < SAMPLE_IDS) group.capture_ids.push(analysis.capture_id);
    }
  }

  report(): AnalysisReport {
    const groups = [...this.groups.values()].map((g) => ({ ...g, capture_ids: [...g.capture_ids], observations: this.operations.get(g.operation)?.observations ?? g.count }));
    groups.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || b.count - a.count || a.operation.localeCompare(b.operation) || a.field.localeCompare(b.field));
    const recommendations = groups.map((g) => ({
      operation: g.operation,
      type: g.type,
      location: g.location,
      field: g.field,
      message: `${isLikely(g.count, g.observations) ? 'likely' : 'possibly'} drift: ${g.count} of ${g.observations} captures of ${g.operation}: ${g.message}`,
      confidence: confidenceOf(g.count, g.observations),
      likely: isLikely(g.count, g.observations),
      suggested_fix: suggestedFix(g, this.basePaths),
    }));
    const by_type: Partial<Record<MismatchType, number>> = {};
    for (const type of MISMATCH_TYPES) if (this.byType.has(type)) by_type[type] = this.byType.get(type);
    return {
      captures: this.captures,
      matched: this.matched,
      clean: this.clean,
      mismatches: this.total,
      by_type,
      by_severity: { ...this.bySeverity },
      operations: [...this.operations].map(([operation, o]) => ({ operation, ...o })).sort((a, b) => b.mismatches - a.mismatches || a.operation.localeCompare(b.operation)),
      groups,
      recommendations,
      min_sample: MIN_SAMPLE,
      groups_dropped: this.dropped,
    };
  }
}
