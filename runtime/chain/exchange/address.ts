/**
 * uWS spells IPv6 addresses out in full (`0000:…:0001`) and IPv4 clients of a dual-stack socket
 * as mapped hex (`…:ffff:7f00:0001`): `::1` and `127.0.0.1` are what people search logs for.
 */
export function readableAddress(text: string): string {
  if (!text.includes(':')) return text;
  const groups = text.split(':');
  if (groups.length === 8 && groups.slice(0, 5).every((g) => /^0{1,4}$/.test(g)) && /^ffff$/i.test(groups[5])) {
    const high = parseInt(groups[6], 16);
    const low = parseInt(groups[7], 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  try {
    return new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return text;
  }
}
