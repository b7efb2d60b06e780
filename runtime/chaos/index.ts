export { checkLatencySpec, LATENCY_DISTRIBUTIONS, sampleLatency, type LatencyDistribution, type LatencySpec } from './distributions.js';
export { chance, pickOne, seededRandom, type Random } from './random.js';
