/**
 * The domains of every generated address (e-mail, URL, host name): the ones RFC 2606 reserves for
 * examples, so a mock's data never names a mailbox or site that may belong to someone.
 */
export const RESERVED_DOMAINS: readonly string[] = ['example.com', 'example.org', 'example.net'];
