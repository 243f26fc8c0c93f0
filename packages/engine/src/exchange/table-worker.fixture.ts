// A worker thread for the shared-memory test: wraps the table the main thread posted and answers
// numbers from it. Runs under Node's type stripping, like the generator script.
import { parentPort, workerData } from 'node:worker_threads';
import { classifyCode } from '../classify.ts';
import { ExchangeTable, type SharedExchangeTable } from './exchange-table.ts';

const table = ExchangeTable.fromShared(workerData as SharedExchangeTable);

parentPort!.on('message', (numbers: number[]) => {
  parentPort!.postMessage({
    version: table.version,
    source: table.source,
    answers: numbers.map((number) => classifyCode(number, table)),
  });
});
