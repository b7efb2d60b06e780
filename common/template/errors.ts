/** A template that cannot be compiled; the message names the offset in the compiled text. */
export class TemplateSyntaxError extends Error {
  constructor(problem: string, offset: number) {
    super(`${problem} at offset ${offset}`);
    this.name = 'TemplateSyntaxError';
  }
}
