import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';

const rss = (l) => {
  const s = readFileSync('/proc/self/status', 'utf8');
  console.log(
    l,
    (s.match(/VmRSS:\s+(\d+)/)[1] / 1024) | 0,
    'MB; HWM',
    (s.match(/VmHWM:\s+(\d+)/)[1] / 1024) | 0,
    'MB',
  );
};
const pg = await PGlite.create({
  dataDir: process.argv[2],
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'],
});
await pg.query('select 1');
await pg.query('create table if not exists t (id serial primary key, v text)');
const t0 = performance.now();
for (let i = 0; i < 3000; i++) {
  await pg.query('insert into t (v) values ($1) returning id', ['x' + i]);
  await pg.query('select count(*) from t where id > $1', [i]);
}
console.log('3000 loops', Math.round(performance.now() - t0), 'ms');
const t1 = performance.now();
for (let i = 0; i < 3000; i++) {
  await pg.query('insert into t (v) values ($1) returning id', ['x' + i]);
  await pg.query('select v from t where id = $1', [i]);
}
console.log('next 3000 loops', Math.round(performance.now() - t1), 'ms');
await new Promise((r) => setTimeout(r, 1000));
rss('idle');
await pg.close();
