// Public entry of @rotunda/rules: the spec's validation and formatting rules for browser and server.
export * from './cal-access.ts';
export * from './captcha.ts';
export * from './claim.ts';
export * from './directory-groups.ts';
export * from './elected-officials.ts';
export * from './email-domain.ts';
export * from './email-eligibility.ts';
export * from './image.ts';
export * from './organization-name.ts';
export * from './password.ts';
export * from './phone.ts';
export * from './post.ts';
export * from './required-fields.ts';
export * from './rich-text.ts';
export * from './state.ts';
export * from './title-case.ts';
