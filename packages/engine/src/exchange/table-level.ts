/**
 * Which of an exchange table's levels answered a number: what `ExchangeData.lineTypeLevel` returns.
 * Small integers, so that a bulk loop allocates nothing.
 */
export const TableLevel = { EXCHANGE: 0, THOUSANDS_BLOCK: 1, NUMBER_OVERRIDE: 2 } as const;
export type TableLevel = (typeof TableLevel)[keyof typeof TableLevel];
