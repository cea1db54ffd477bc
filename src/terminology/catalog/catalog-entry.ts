/** [dotted code, official FY2026 title, everyday synonyms and abbreviations] */
export type CatalogEntry = [code: string, title: string, synonyms: string[]];
