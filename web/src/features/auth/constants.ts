// The login dialog's texts.
// Values the server shares come from the generated module (`python -m agora constants`);
// what other parts use too lives in shared/constants.

export const LOGIN_TITLE = 'Login to continue';
