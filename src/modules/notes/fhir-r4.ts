/**
 * The part of FHIR R4 DocumentReference this service writes, with R4's field names and value sets.
 * Written here because the installed @types/fhir is 3.0.2 (STU3: `indexed`, `class`, no `date`);
 * swap for `fhir4.DocumentReference` from @types/fhir 4.x when that is installed.
 */
export interface FhirCoding {
  system?: string;
  code?: string;
  display?: string;
}

export interface FhirCodeableConcept {
  coding?: FhirCoding[];
  text?: string;
}

export interface FhirIdentifier {
  system?: string;
  value?: string;
  type?: FhirCodeableConcept;
}

export interface FhirReference {
  reference?: string;
  type?: string;
  identifier?: FhirIdentifier;
  display?: string;
}

export interface FhirAttachment {
  contentType?: string;
  language?: string;
  data?: string;
  title?: string;
  creation?: string;
}

export interface DocumentReferenceR4 {
  resourceType: 'DocumentReference';
  id?: string;
  meta?: { versionId?: string; lastUpdated?: string };
  identifier?: FhirIdentifier[];
  /** required, value set document-reference-status */
  status: 'current' | 'superseded' | 'entered-in-error';
  /** value set composition-status */
  docStatus?: 'preliminary' | 'final' | 'amended' | 'entered-in-error';
  type?: FhirCodeableConcept;
  subject?: FhirReference;
  date?: string;
  author?: FhirReference[];
  description?: string;
  /** required, at least one, each with an attachment */
  content: { attachment: FhirAttachment }[];
  context?: { related?: FhirReference[] };
}
