/** How a body of this media type is read or written. */
export type BodyFormat = 'json' | 'form' | 'multipart' | 'xml' | 'text' | 'binary';

export function bodyFormat(mediaType: string): BodyFormat {
  const type = mediaType.split(';')[0].trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json') || type === 'text/json' || type === '*/*' || type === 'application/*') return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type === 'multipart/form-data' || type.startsWith('multipart/')) return 'multipart';
  if (type.endsWith('/xml') || type.endsWith('+xml')) return 'xml';
  if (type.startsWith('text/')) return 'text';
  return 'binary';
}
