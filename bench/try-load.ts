import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { loadDataset, scaledSize } from './dataset';

void (async () => {
  const db = await openDatabase(loadConfig({ DATABASE_URL: process.env.DATABASE_URL! }));
  const m = await loadDataset(db.orm, scaledSize(Number(process.env.SCALE ?? '0.01')), console.log);
  console.log(JSON.stringify(m.window), m.loadSeconds);
  await db.close();
})();
