package brokkr.eval;

/** One reason a candidate can lose, and whether it held: {@code db_match}, {@code communicated_info}, ... */
public record Check(String name, boolean passed) {}
