/** The exception names of Amazon Cognito's user pool API that the built-in pool answers with. */
export type CognitoErrorType =
  | 'CodeMismatchException'
  | 'EnableSoftwareTokenMFAException'
  | 'ExpiredCodeException'
  | 'InternalErrorException'
  | 'InvalidParameterException'
  | 'InvalidPasswordException'
  | 'LimitExceededException'
  | 'NotAuthorizedException'
  | 'ResourceNotFoundException'
  | 'SerializationException'
  | 'TooManyRequestsException'
  | 'UnauthorizedException'
  | 'UnknownOperationException'
  | 'UnsupportedOperationException'
  | 'UserNotConfirmedException'
  | 'UserNotFoundException'
  | 'UsernameExistsException'
  | 'GroupExistsException';

/**
 * A failure as Cognito reports it: `{"__type": type, "message": ...}` with a 4xx status. Clients
 * (amazon-cognito-identity-js, the AWS SDKs) read `__type` into `error.code` and `error.name`.
 */
export class CognitoError extends Error {
  override name = 'CognitoError';

  constructor(
    readonly type: CognitoErrorType,
    message: string,
    readonly status = type === 'InternalErrorException' ? 500 : 400,
  ) {
    super(message);
  }
}

/** Cognito's own wording, so that clients matching on messages (the seeds' dashboard does) keep working. */
export const cognitoMessages = {
  badCredentials: 'Incorrect username or password.',
  attemptsExceeded: 'Password attempts exceeded',
  codeMismatch: 'Invalid verification code provided, please try again.',
  codeExpired:
    'Invalid code provided, please request a code again. The code has expired or was already used.',
  codeAttemptsExceeded: 'Attempt limit exceeded, please request a new code.',
  sendLimitExceeded: 'Attempt limit exceeded, please try after some time.',
  notConfirmed: 'User is not confirmed.',
  disabled: 'User is disabled.',
  userNotFound: 'User does not exist.',
  usernameExists: 'An account with the given email already exists.',
} as const;
