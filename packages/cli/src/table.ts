/**
 * A table for people at a terminal, cyan headings and grey borders unless colour is off.
 * cli-table3 is imported here, when a table is drawn, so that runs printing none never load it.
 */
export async function renderTable(head: string[], rows: string[][], color: boolean): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const table = new Table({
    head,
    style: color ? { head: ['cyan'], border: ['grey'] } : { head: [], border: [] },
  });
  table.push(...rows);
  return table.toString();
}
