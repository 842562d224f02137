// What a write answers: the stored row, and whether this call changed it. Callers announce a
// change only when `changed`, never by comparing timestamps (triggers may move updated_at).
export interface Written<T> {
  row: T;
  changed: boolean;
}
