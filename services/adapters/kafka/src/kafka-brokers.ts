import { z } from 'zod';

/** KAFKA_BROKERS as every process reads it: `host:port[,host:port]`. */
export const kafkaBrokerList = z
  .string({ error: 'expected host:port[,host:port]' })
  .trim()
  .regex(/^[^\s,:]+:\d+(,[^\s,:]+:\d+)*$/, 'expected host:port[,host:port]')
  .transform((value) => value.split(','));
