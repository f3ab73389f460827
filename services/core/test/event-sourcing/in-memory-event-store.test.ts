import { createInMemoryEventStore } from '@qrshirt/core';
import { describeEventStoreContract } from '@qrshirt/core/testing';

describeEventStoreContract('in-memory', () => createInMemoryEventStore());
