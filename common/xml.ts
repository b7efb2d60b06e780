/** Minimal JSON-to-XML serialiser for describing-only XML bodies; names are sanitised into valid element names. */
export function toXml(value: unknown, root = 'root'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>${element(elementName(root), value)}`;
}

function element(name: string, value: unknown): string {
  if (value === null || value === undefined) return `<${name}/>`;
  if (Array.isArray(value)) return `<${name}>${value.map((v) => element('item', v)).join('')}</${name}>`;
  if (typeof value === 'object') {
    const inner = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => (Array.isArray(v) ? v.map((item) => element(elementName(k), item)).join('') : element(elementName(k), v)))
      .join('');
    return `<${name}>${inner}</${name}>`;
  }
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

const elementName = (raw: string): string => {
  const cleaned = raw.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
};

const escapeXml = (s: string): string => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
