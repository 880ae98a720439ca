CREATE TABLE "rate_limits" (
	"key_id" text PRIMARY KEY NOT NULL,
	"second" bigint NOT NULL,
	"counts" integer[] NOT NULL,
	"admitted" boolean NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limits_second_idx" ON "rate_limits" USING btree ("second");