// Benchmark settings from the environment.

/** A positive number from `process.env[name]`, or `fallback`; throws naming the variable otherwise. */
export function positiveEnv(name, fallback) {
  const value = Number(process.env[name] ?? fallback);
  if (!(value > 0)) throw new Error(`${name} must be a positive number, not ${process.env[name]}`);
  return value;
}
