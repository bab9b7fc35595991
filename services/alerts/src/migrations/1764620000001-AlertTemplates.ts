import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Saved alert templates (issue #19) that the wizard and Quick Send start from: type, category, severity, the text in
 * English and other languages, channels and default radius. Names are unique regardless of case. The wrong-way driver
 * template ships with Beacon (inserted here; a name already taken is left alone).
 */
export class AlertTemplates1764620000001 implements MigrationInterface {
  name = 'AlertTemplates1764620000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE alerts.alert_templates (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        type text NOT NULL,
        category text NOT NULL CHECK (category IN ('weather','traffic','security','public_safety','health')),
        severity text NOT NULL CHECK (severity IN ('low','medium','high','critical')),
        title text NOT NULL,
        message text NOT NULL,
        translations jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(translations) = 'object'),
        channels text[] NOT NULL CHECK (cardinality(channels) >= 1 AND channels <@ ARRAY['push','sms','email']),
        radius_km double precision CHECK (radius_km > 0),
        created_by uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX alert_templates_name_key ON alerts.alert_templates (lower(name))`);
    await q.query(
      `INSERT INTO alerts.alert_templates (name, type, category, severity, title, message, translations, channels, radius_km)
       VALUES ($1, 'Traffic', 'traffic', 'critical', $2, $3, $4::jsonb, ARRAY['push','sms'], 10)
       ON CONFLICT DO NOTHING`,
      [
        'Wrong-way driver',
        'Wrong-way driver reported',
        'A driver is going the wrong way on the road near you. Move to the right lane or leave the road if you can, do not try to stop them, and call 911 with the location.',
        JSON.stringify({
          es: {
            title: 'Conductor en sentido contrario',
            message:
              'Un conductor circula en sentido contrario cerca de usted. Pase al carril derecho o salga de la vía si puede, no intente detenerlo y llame al 911 con la ubicación.',
          },
        }),
      ],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE alerts.alert_templates`);
  }
}
