import { MemoryStore } from '@cohort/store';
import { describeStoreConformance } from '@cohort/store/testing';

describeStoreConformance('MemoryStore', async (initial) => ({
  durable: false,
  open: async () => new MemoryStore(initial),
}));
