import { ConflictError } from '../../common/errors/app-error.js';

export enum EvaluationsErrorCode {
  /** A publish or traffic split would serve a revision without a passing evaluation (agent setting on). */
  EvaluationRequired = 'evaluation_required',
}

export class EvaluationRequiredError extends ConflictError {
  constructor(message: string) {
    super(EvaluationsErrorCode.EvaluationRequired, message);
  }
}
