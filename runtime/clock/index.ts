export { VirtualClock, type ClockOptions, type ClockStatus, type ScheduledStep } from './virtual-clock.js';
