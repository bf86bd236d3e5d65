import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAccounts1795290000000 implements MigrationInterface {
  name = 'CreateAccounts1795290000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      email varchar(254) NOT NULL,
      password_hash varchar(255) NOT NULL,
      name varchar(100) NULL,
      age int NULL,
      role varchar(20) NOT NULL DEFAULT 'member',
      email_verified_at timestamptz NULL,
      suspended_at timestamptz NULL,
      suspension_reason text NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT users_role_check CHECK (role IN ('member', 'admin')),
      CONSTRAINT users_age_check CHECK (age IS NULL OR age BETWEEN 18 AND 120)
    )`);
    await q.query(`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`);
    await q.query(`CREATE TABLE sessions (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      device_info varchar(255) NOT NULL,
      ip_address varchar(64) NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz NULL
    )`);
    await q.query(`CREATE INDEX sessions_user_idx ON sessions (user_id) WHERE revoked_at IS NULL`);
    await q.query(`CREATE TABLE auth_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      kind varchar(20) NOT NULL,
      token_hash char(64) NOT NULL,
      new_email varchar(254) NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT auth_tokens_kind_check CHECK (kind IN ('verify_email', 'reset_password', 'email_change'))
    )`);
    await q.query(`CREATE UNIQUE INDEX auth_tokens_hash_key ON auth_tokens (token_hash)`);
    await q.query(`CREATE INDEX auth_tokens_user_kind_idx ON auth_tokens (user_id, kind) WHERE used_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE auth_tokens');
    await q.query('DROP TABLE sessions');
    await q.query('DROP TABLE users');
  }
}
