declare module 'swagger2openapi' {
  interface ConvertOptions {
    patch?: boolean;
    warnOnly?: boolean;
    resolve?: boolean;
    direct?: boolean;
  }
  const swagger2openapi: {
    convertObj(spec: object, options: ConvertOptions): Promise<{ openapi: Record<string, unknown> }>;
  };
  export default swagger2openapi;
}
