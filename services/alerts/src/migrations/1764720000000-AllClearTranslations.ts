import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The all-clear's own words in the alert's other languages (issue #38), { es: { message }, ... }: a Spanish reader is
 * told the alert ended in Spanish, not "Fin de la alerta:" followed by the English sentence. NULL when it was given in
 * English only (or before this column).
 */
export class AllClearTranslations1764720000000 implements MigrationInterface {
  name = 'AllClearTranslations1764720000000';

  async up(q: QueryRunner) {
    await q.query(`ALTER TABLE alerts.alerts ADD COLUMN all_clear_translations jsonb`);
  }

  async down(q: QueryRunner) {
    await q.query(`ALTER TABLE alerts.alerts DROP COLUMN all_clear_translations`);
  }
}
