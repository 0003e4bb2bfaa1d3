// Where a field of a parsed YAML (or JSON) document sits in its text, for messages like
// `switchboard.yaml:14:9: models[0].endpoints[1].pricing.input: …`.
import { isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

export interface FieldLocation {
  line: number;
  column: number;
  /** False when the path leads past the document (a missing field): the location is its nearest parent's. */
  found: boolean;
}

interface Step {
  node: Node | null;
  /** The key of the pair the node is the value of, when it came from a mapping. */
  key: Node | null;
}

function child(node: Node | null, segment: PropertyKey): Step | undefined {
  if (isMap(node)) {
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const key = pair.key as Node | null;
      const name = isScalar(key) ? key.value : key;
      if (String(name) === String(segment)) return { node: (pair.value as Node | null) ?? null, key };
    }
    return undefined;
  }
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment] as Node | null | undefined;
    return item === undefined ? undefined : { node: item ?? null, key: null };
  }
  return undefined;
}

/**
 * The value at `path` (or, with `atKey`, the key naming it: where an unknown field should point). A missing
 * field points at the mapping that lacks it. An empty value (`pricing:` and nothing) points at its key.
 */
export function locateField(doc: Document, lineCounter: LineCounter, path: readonly PropertyKey[], atKey = false): FieldLocation {
  let step: Step = { node: (doc.contents as Node | null) ?? null, key: null };
  let found = true;
  for (const segment of path) {
    const next = child(step.node, segment);
    if (!next) {
      found = false;
      break;
    }
    step = next;
  }
  const target = (found && atKey ? step.key : step.node) ?? step.key ?? step.node;
  const offset = target?.range?.[0] ?? 0;
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col, found };
}
