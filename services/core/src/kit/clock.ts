/** Time comes from here, injected, so tests control it. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
