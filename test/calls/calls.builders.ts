/** The voice key of the test app (TEST_API_KEYS[0]). */
export const API_KEY = 'test-api-key-current';

/** A valid external-questionnaire call request body, with overrides. */
export const validCall = (overrides: Record<string, unknown> = {}) => ({
  questionnaireId: 'phq-9',
  phoneNumber: '+34915550142',
  ...overrides,
});
