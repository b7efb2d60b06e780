import type { Segment } from './segments.js';
import { parseTemplate, paramNames, segmentKey } from './segments.js';

/** What a matched path may dispatch to; `names` label the captured parameter values. */
export interface Candidate {
  kind: 'op' | 'route';
  index: number;
  names: string[];
  /** Lower sorts first. */
  rank: number;
}

export interface RouteNode {
  segment?: Segment;
  children: Map<string, RouteNode>;
  /** method ('*' for any) -> candidates */
  methods: Map<string, Candidate[]>;
}

export interface RouteEntry {
  kind: 'op' | 'route';
  index: number;
  method: string;
  path: string;
  rank: number;
}

export function buildTree(entries: RouteEntry[]): RouteNode {
  const root: RouteNode = { children: new Map(), methods: new Map() };
  for (const entry of entries) {
    const segments = parseTemplate(entry.path);
    let node = root;
    for (const segment of segments) {
      const key = segmentKey(segment);
      let child = node.children.get(key);
      if (!child) {
        child = { segment, children: new Map(), methods: new Map() };
        node.children.set(key, child);
      }
      node = child;
    }
    const list = node.methods.get(entry.method) ?? [];
    list.push({ kind: entry.kind, index: entry.index, names: paramNames(segments), rank: entry.rank });
    node.methods.set(entry.method, list);
  }
  return root;
}
