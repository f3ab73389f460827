// pino-roll ships no types; these are the options of its README that this package uses.
declare module 'pino-roll' {
  import type { SonicBoom, SonicBoomOpts } from 'sonic-boom';

  export interface PinoRollOptions extends Omit<SonicBoomOpts, 'dest'> {
    file: string | (() => string);
    frequency?: 'daily' | 'hourly' | number;
    size?: string | number;
    dateFormat?: string;
    extension?: string;
    symlink?: boolean;
    limit?: { count: number; removeOtherLogFiles?: boolean };
  }

  export default function pinoRoll(options: PinoRollOptions): Promise<SonicBoom>;
}
