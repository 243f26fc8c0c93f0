import type { ColumnType, Generated } from 'kysely';

/** The tables, as Kysely sees them. Each migration that adds a table adds its interface here. */
export interface PlansTable {
  plan_reference: string;
  plan_name: string;
  plan_subtitle: string;
  plan_type: 'prepaid' | 'postpaid' | 'intro';
  plan_amount: number;
  percent_off: number;
  plan_credits: number | null;
  plan_credits_text: string;
  bonus_credits: number;
  interval: 'month' | null;
  unlimited: boolean;
  amount_options: ColumnType<AmountOptionRow[], string, string>;
  sort_order: number;
  active: Generated<boolean>;
  updated_at: Generated<Date>;
}

export interface AmountOptionRow {
  amount: number;
  credits: number | null;
  percent_off: number;
  unlimited_days: number | null;
}

export interface Database {
  plans: PlansTable;
}
