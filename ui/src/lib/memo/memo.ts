// The decision memo's pure logic: where a refusal's problems go, what a new identity must have
// before it is sent, how a signature check reads in words. (The verify flow is in
// verify-pdf-manager.svelte.ts.)

import { BackendError } from "../backend";
import type { IdentitySummary, MemoDraft, PdfCheck, SignatureReport } from "../workspace-types";

/** The shortest passphrase the back end accepts for a new identity (planner-publish MIN_PASSPHRASE). */
export const MIN_PASSPHRASE = 8;

/** The draft fields a refusal may name (`memo.<field>`). */
export type MemoField = keyof MemoDraft;

/**
 * Splits a refusal into problems per field (details whose `field` starts with `prefix`, keyed by
 * the rest, e.g. `memo.author` → `author`) and the rest, to be shown as a message. A detail
 * without a field, or with another prefix, stays in `other`.
 */
export function problemsByField(error: unknown, prefix: string): { fields: Record<string, string[]>; other: string[] } {
  const fields: Record<string, string[]> = {};
  const other: string[] = [];
  if (!(error instanceof BackendError)) return { fields, other };
  for (const d of error.error.details) {
    if (d.field && d.field.startsWith(prefix)) {
      const key = d.field.slice(prefix.length);
      (fields[key] ??= []).push(d.message);
    } else {
      other.push(d.field ? `${d.field}: ${d.message}` : d.message);
    }
  }
  return { fields, other };
}

export type NewIdentity = { name: string; organisation: string; email: string; passphrase: string; confirm: string };

/** What is wrong with a new identity before it is sent, per field (empty: it may be sent). */
export function newIdentityProblems(x: NewIdentity): Partial<Record<keyof NewIdentity, string>> {
  const out: Partial<Record<keyof NewIdentity, string>> = {};
  if (x.name.trim() === "") out.name = "give the signer's name, as it should appear on signatures";
  if (x.organisation.trim() === "") out.organisation = "give the signer's organisation";
  if (x.email.trim() !== "" && !/^[^\s@]+@[^\s@]+$/.test(x.email.trim())) out.email = "not an e-mail address (leave it empty if there is none)";
  if ([...x.passphrase].length < MIN_PASSPHRASE) {
    out.passphrase = `at least ${MIN_PASSPHRASE} characters: it encrypts the private key`;
  } else if (x.confirm !== x.passphrase) {
    out.confirm = "the two passphrases differ";
  }
  return out;
}

/** One signature is intact: digest and signature verify, it covers a whole revision, nothing is wrong. */
export function signatureIntact(s: SignatureReport): boolean {
  return s.digest_ok && s.signature_ok && s.covers_revision && s.problems.length === 0;
}

export type Verdict = { kind: "intact" | "broken" | "unsigned"; text: string };

/** The overall verdict of a check, in words (never colour alone). */
export function verdict(check: PdfCheck): Verdict {
  const sigs = check.verification.signatures;
  if (sigs.length === 0) return { kind: "unsigned", text: "No signature: this PDF is not signed" };
  if (check.all_intact) {
    return { kind: "intact", text: sigs.length === 1 ? "The signature is intact" : `Every signature is intact (${sigs.length})` };
  }
  const broken = sigs.filter((s) => !signatureIntact(s)).length;
  return { kind: "broken", text: `NOT intact: ${broken} of ${sigs.length} ${sigs.length === 1 ? "signature fails" : "signatures fail"}` };
}

/** What a signature covers, in words. */
export function coverage(s: SignatureReport): string {
  if (!s.covers_revision) return "does not cover a whole revision of the file";
  const later = s.later_bytes ?? 0;
  if (later === 0) return "covers the whole file";
  return `covers its revision; ${later.toLocaleString("en-US")} ${later === 1 ? "byte was" : "bytes were"} added later`;
}

/** A byte count for people: "182,344 bytes (178 KiB)". */
export function formatSize(bytes: number, locale: string): string {
  const exact = `${bytes.toLocaleString(locale)} ${bytes === 1 ? "byte" : "bytes"}`;
  if (bytes < 1024) return exact;
  const kib = bytes / 1024;
  return kib < 1024 ? `${exact} (${Math.round(kib).toLocaleString(locale)} KiB)` : `${exact} (${(kib / 1024).toFixed(1)} MiB)`;
}

/** A fingerprint shortened for lists: the first 16 hex digits in groups of four. */
export function shortFingerprint(hex: string): string {
  return (hex.slice(0, 16).match(/.{1,4}/g) ?? []).join(" ");
}

/** The date part of an ISO 8601 time ("2026-11-22T10:00:00Z" → "2026-11-22"). */
export function day(iso: string): string {
  return iso.slice(0, 10);
}

/** How an identity reads in a picker. */
export function identityLabel(i: IdentitySummary): string {
  const who = [i.common_name, i.organisation].filter((x): x is string => !!x).join(", ") || i.id;
  return `${who} (${i.origin})`;
}
