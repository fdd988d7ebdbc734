package io.sf2loki.sim.org;

import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Salesforce's Big Object query rules as the simulated org enforces them (SPEC FEAT-18, OBJ-5,
 * OBJ-7): filters and ORDER BY only on the object's index fields (default {@code EventDate}, {@code
 * EventIdentifier}), no {@code NOT IN}, no {@code OR}, no predicate on {@code Id}, {@code IN} only
 * next to {@code =} predicates (the last filtered index field), and descending order only. A
 * violation is answered with {@code 400 BIG_OBJECT_UNSUPPORTED_OPERATION}.
 */
final class BigObjectRules {
  static final String ERROR_CODE = "BIG_OBJECT_UNSUPPORTED_OPERATION";

  private BigObjectRules() {}

  /**
   * @param indexFields the object's index fields (case-insensitive)
   * @throws SoqlRejection 400 {@value #ERROR_CODE} naming the violated rule
   */
  static void check(ObjectQuery q, Set<String> indexFields) throws SoqlRejection {
    Set<String> index =
        indexFields.stream().map(f -> f.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
    check(q.where(), index, q.from());
    checkInIsLast(q.where(), q.from());
    for (ObjectQuery.OrderItem it : q.orderBy()) {
      if (!index.contains(it.field().toLowerCase(Locale.ROOT))) {
        throw reject("ORDER BY on a non-index field of big object " + q.from() + ": " + it.field());
      }
      if (!it.descending()) {
        throw reject(
            "Ascending order is not supported on big object "
                + q.from()
                + "; use ORDER BY "
                + it.field()
                + " DESC");
      }
    }
  }

  private static void check(ObjectQuery.Expr e, Set<String> index, String from)
      throws SoqlRejection {
    if (e == null) {
      return;
    }
    switch (e) {
      case ObjectQuery.And a -> {
        for (ObjectQuery.Expr p : a.parts()) {
          check(p, index, from);
        }
      }
      case ObjectQuery.Or o -> throw reject("OR is not supported in big object filters");
      case ObjectQuery.In in -> {
        if (in.negated()) {
          throw reject("NOT IN is not supported in big object filters");
        }
        field(in.field(), index, from);
      }
      case ObjectQuery.Compare c -> {
        if (c.op().equals("!=") || c.op().equals("<>")) {
          throw reject("!= is not supported in big object filters");
        }
        field(c.field(), index, from);
      }
    }
  }

  /**
   * Salesforce: {@code IN} (like a range) is allowed only on the last index field of the filter,
   * and every prior field may only use {@code =}; so next to an {@code IN} only {@code =}
   * predicates on other fields are valid.
   */
  private static void checkInIsLast(ObjectQuery.Expr e, String from) throws SoqlRejection {
    if (!(e instanceof ObjectQuery.And a)) {
      return;
    }
    ObjectQuery.In in = null;
    for (ObjectQuery.Expr p : a.parts()) {
      if (p instanceof ObjectQuery.In i) {
        if (in != null) {
          throw reject("only one IN is allowed in a big object filter on " + from);
        }
        in = i;
      }
    }
    if (in == null) {
      return;
    }
    for (ObjectQuery.Expr p : a.parts()) {
      if (p instanceof ObjectQuery.Compare c
          && (!c.op().equals("=") || c.field().equalsIgnoreCase(in.field()))) {
        throw reject(
            "IN must be on the last filtered index field of big object "
                + from
                + "; prior fields allow only =");
      }
    }
  }

  private static void field(String f, Set<String> index, String from) throws SoqlRejection {
    if (!index.contains(f.toLowerCase(Locale.ROOT))) {
      throw reject("Filter on a non-index field of big object " + from + ": " + f);
    }
  }

  private static SoqlRejection reject(String msg) {
    return new SoqlRejection(400, ERROR_CODE, msg);
  }
}
