import { BOUNDARY } from './request-model.js';

/** Attack strings for the `owasp:*` probes, placed into a string parameter or field. One line each (they may travel in a header). */
export const OWASP_PAYLOADS = {
  sqli: "' OR '1'='1' -- ",
  xss: '<script>alert("mock-xss")</script>',
  'command-injection': '; cat /etc/passwd #',
  'path-traversal': '../../../../../../etc/passwd',
  ssti: '{{7*7}}${7*7}<%= 7*7 %>',
  'ldap-injection': '*)(uid=*))(|(uid=*',
  xxe: '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r>&xxe;</r>',
} as const;

export type OwaspKind = keyof typeof OWASP_PAYLOADS;

/** Formats a body can be mistaken for: the content-type-mismatch and embedded-content scopes. */
export const OTHER_FORMATS = ['xml', 'yaml', 'multipart', 'urlencoded'] as const;
export type OtherFormat = (typeof OTHER_FORMATS)[number];

/** The Content-Type each mismatch probe declares. */
export const FORMAT_MEDIA_TYPE: Record<OtherFormat, string> = {
  xml: 'application/xml',
  yaml: 'application/yaml',
  multipart: `multipart/form-data; boundary=${BOUNDARY}`,
  urlencoded: 'application/x-www-form-urlencoded',
};

/** A small document of each format, embedded as text in a field of an otherwise valid body. */
export const EMBEDDED_DOCUMENTS: Record<OtherFormat, string> = {
  xml: '<?xml version="1.0" encoding="UTF-8"?><note><to>mock</to><body>embedded &amp; escaped</body></note>',
  yaml: 'kind: embedded\nitems:\n  - one\n  - two: 2\nanchor: &a {x: 1}\nalias: *a\n',
  multipart: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="field"\r\n\r\nembedded\r\n--${BOUNDARY}--\r\n`,
  urlencoded: 'field=embedded&other=%3Cvalue%3E&list=a&list=b',
};
