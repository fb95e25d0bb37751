import { describeOpenError } from '@cohort/store';
import { describeStoreConformance } from '@cohort/store/testing';
import { PostgresStore } from '@cohort/store-postgres';
import { PG_URL, dropSchema, freshSchema } from './utils/pgSchema.ts';

describeStoreConformance('PostgresStore', async (initial) => {
  const schema = freshSchema('conf');
  return {
    durable: true,
    open: async () => {
      const opened = await PostgresStore.open({ url: PG_URL, schema, initialBook: initial });
      if (!opened.ok) throw new Error(describeOpenError(opened.error));
      return opened.store;
    },
    cleanup: () => dropSchema(schema),
  };
});
