// The OpenAPI 3.1 description of the backend's HTTP API: the one checked-in copy, served as is at GET /openapi.json.
// Edit the JSON below directly; `OpenAPIDocumentTests` checks it parses, covers every route and problem code, and
// `scripts/suites/api-contract` runs schemathesis with it against a live `baton serve --sandbox`.

extension OpenAPIDocument {
    /// The document's JSON text, exactly as `GET /openapi.json` serves it.
    public static let json = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "Baton partner backend",
            "version": "2.0.0",
            "summary": "The app-facing API of a Baton partner backend (Chia catalog handoff, Privue verification, BB bank connect).",
            "description": "Every `/v2/*` route needs `Authorization: Bearer <app token>` (`baton token --user ID` mints development tokens). Errors are RFC 9457 `application/problem+json` objects whose `code` is stable: clients branch on `code`, never on `title` or `detail`. Responses that carry a journey URL are `Cache-Control: no-store`; open such a URL once and never persist it. In production every URL is `https`; `baton serve --sandbox` hands out loopback `http` URLs of its provider simulators. See docs/CONTRACTS.md §2.",
            "license": {
              "name": "Proprietary",
              "identifier": "LicenseRef-Proprietary"
            }
          },
          "tags": [
            {
              "name": "catalog",
              "description": "Chia catalog and share handoff (seed 000)."
            },
            {
              "name": "verification",
              "description": "Privue identity verification (seed 001)."
            },
            {
              "name": "connect",
              "description": "BB bank connect (seed 002)."
            },
            {
              "name": "webhooks",
              "description": "Standard Webhooks receivers for the providers (not called by apps)."
            },
            {
              "name": "landing",
              "description": "Pages at the registered https return paths, for a browser whose return link did not open the app."
            },
            {
              "name": "well-known",
              "description": "Universal-link and app-link association files."
            },
            {
              "name": "operations",
              "description": "Health, readiness, metrics and this document."
            }
          ],
          "paths": {
            "/v2/catalog": {
              "get": {
                "tags": [
                  "catalog"
                ],
                "operationId": "getCatalog",
                "summary": "The user's catalog cards",
                "description": "One card per item the user may see, in catalog order; hidden items are absent. Each card carries exactly one `MobileHandoff`.",
                "security": [
                  {
                    "bearerAuth": []
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The user's cards.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/CatalogResponse"
                        }
                      }
                    },
                    "links": {
                      "ShareTheFirstCard": {
                        "operationId": "createHandoffSession",
                        "description": "Share the first card: its id and the disclosure version it showed (a `share_or_neutral` card carries `handoff.primary.disclosureVersion`).",
                        "requestBody": {
                          "catalogItemId": "$response.body#/items/0/id",
                          "disclosureVersion": "$response.body#/items/0/handoff/primary/disclosureVersion",
                          "affirmed": true,
                          "affirmedAt": "2026-03-01T12:00:00Z"
                        }
                      }
                    },
                    "headers": {
                      "Cache-Control": {
                        "$ref": "#/components/headers/NoStore"
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "503": {
                    "description": "This instance has not loaded a catalog publication yet (`catalog_unavailable`: just started, or Chia and the store unreachable since), or the store is briefly unavailable (`service_unavailable`). Retry after `Retry-After` seconds.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "catalog_unavailable",
                                    "service_unavailable"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    },
                    "headers": {
                      "Retry-After": {
                        "$ref": "#/components/headers/RetryAfter"
                      }
                    }
                  }
                }
              }
            },
            "/v2/handoff-sessions": {
              "post": {
                "tags": [
                  "catalog"
                ],
                "operationId": "createHandoffSession",
                "summary": "Share the selection with Chia and get the journey URL",
                "description": "Idempotent per (user, `Idempotency-Key`). The same key and body replay the first answer (`Idempotent-Replayed: true`) until the URL expires (then 410); a still-running duplicate waits for the first (bounded, then 503 `request_in_progress`). After a network error, 429 or 5xx, retry with the same key and body; after any other 4xx, discard both and refetch the catalog.",
                "security": [
                  {
                    "bearerAuth": []
                  }
                ],
                "parameters": [
                  {
                    "name": "Idempotency-Key",
                    "in": "header",
                    "required": true,
                    "description": "A random UUIDv4, kept with the exact body until a final answer.",
                    "schema": {
                      "type": "string",
                      "pattern": "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$"
                    }
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/HandoffSessionRequest"
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "The co-branded journey URL, valid until `expiresAt`. Open it once; never store it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/HandoffSession"
                        }
                      }
                    },
                    "headers": {
                      "Cache-Control": {
                        "$ref": "#/components/headers/NoStore"
                      },
                      "Idempotent-Replayed": {
                        "description": "`true` when this is the recorded answer to an earlier request with the same key and body.",
                        "schema": {
                          "type": "string",
                          "const": "true"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "The key is missing or not a UUIDv4 (`idempotency_key_invalid`), or the body is not exactly the four members with `affirmed: true` (`invalid_request`).",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "idempotency_key_invalid",
                                    "invalid_request"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "409": {
                    "description": "The item is no longer offered for sharing to this user, or `disclosureVersion` is not current. Definitive: discard the key and body and refetch the catalog. `request_rejected` is the replay of such an answer whose record has lapsed.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "projection_changed",
                                    "request_rejected"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "410": {
                    "description": "The journey URL recorded for this key and body has expired (`handoff_expired`).",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "handoff_expired",
                                    "request_rejected"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/PayloadTooLarge"
                  },
                  "422": {
                    "description": "The key was used with a different body (`idempotency_key_reused`), or Chia refused the request definitively (`handoff_rejected`).",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "idempotency_key_reused",
                                    "handoff_rejected",
                                    "request_rejected"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "429": {
                    "description": "`provider_rate_limited`: Chia is rate limiting; `rate_limited`: this user sent more requests than the per-user limit allows. Retry after `Retry-After` seconds with the same key and body.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "provider_rate_limited",
                                    "rate_limited"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    },
                    "headers": {
                      "Retry-After": {
                        "$ref": "#/components/headers/RetryAfter"
                      }
                    }
                  },
                  "502": {
                    "description": "Chia could not be reached or answered with an error. Retry with the same key and body.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "provider_unavailable"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    },
                    "headers": {
                      "Retry-After": {
                        "$ref": "#/components/headers/RetryAfter"
                      }
                    }
                  },
                  "503": {
                    "description": "Chia timed out (`provider_timeout`), the first request with this key is still running (`request_in_progress`), this instance has not loaded the catalog yet (`catalog_unavailable`), or the backend is briefly unavailable. Retry after `Retry-After` seconds with the same key and body.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "catalog_unavailable",
                                    "provider_timeout",
                                    "request_in_progress",
                                    "service_unavailable"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    },
                    "headers": {
                      "Retry-After": {
                        "$ref": "#/components/headers/RetryAfter"
                      }
                    }
                  }
                }
              }
            },
            "/v2/verification-handoffs": {
              "post": {
                "tags": [
                  "verification"
                ],
                "operationId": "createVerificationHandoff",
                "summary": "A fresh single-use Privue journey URL",
                "description": "Creates the user's verification for the workflow if needed, then asks Privue for a new single-use handoff URL. Nothing is cached: every call returns a new URL.",
                "security": [
                  {
                    "bearerAuth": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/VerificationHandoffRequest"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The journey URL and how long it is valid. Open it once; never store it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/VerificationHandoff"
                        }
                      }
                    },
                    "headers": {
                      "Cache-Control": {
                        "$ref": "#/components/headers/NoStore"
                      }
                    },
                    "links": {
                      "GetVerification": {
                        "operationId": "getVerification",
                        "parameters": {
                          "workflow": "$request.body#/workflow"
                        },
                        "description": "The verification's authoritative status."
                      }
                    }
                  },
                  "400": {
                    "description": "The body is not exactly `{\"workflow\": \"…\"}`.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "invalid_request"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "description": "The workflow is not offered by this backend.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "unknown_workflow",
                                    "not_found"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/PayloadTooLarge"
                  },
                  "429": {
                    "description": "`provider_rate_limited`: Privue is rate limiting; `rate_limited`: this user sent more requests than the per-user limit allows. Retry after `Retry-After` seconds.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "provider_rate_limited",
                                    "rate_limited"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    },
                    "headers": {
                      "Retry-After": {
                        "$ref": "#/components/headers/RetryAfter"
                      }
                    }
                  },
                  "502": {
                    "description": "Privue could not be reached, answered with an error, or refused the request.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "provider_unavailable",
                                    "provider_rejected"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "503": {
                    "description": "Privue timed out, or the backend is briefly unavailable. Retry after `Retry-After` seconds.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "provider_timeout",
                                    "service_unavailable"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    },
                    "headers": {
                      "Retry-After": {
                        "$ref": "#/components/headers/RetryAfter"
                      }
                    }
                  }
                }
              }
            },
            "/v2/verifications/{workflow}": {
              "get": {
                "tags": [
                  "verification"
                ],
                "operationId": "getVerification",
                "summary": "The user's verification status for a workflow",
                "description": "Authoritative: refreshed from Privue while not settled, kept current by webhooks. The return link's `status` is only a hint; this is the answer.",
                "security": [
                  {
                    "bearerAuth": []
                  }
                ],
                "parameters": [
                  {
                    "name": "workflow",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string",
                      "minLength": 1,
                      "examples": [
                        "merchant-onboarding"
                      ]
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The verification.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/VerificationStatus"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "description": "No verification for this user and workflow (or the workflow is not offered).",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "not_found"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/RateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/ServiceUnavailable"
                  }
                }
              }
            },
            "/v2/connect-sessions": {
              "post": {
                "tags": [
                  "connect"
                ],
                "operationId": "createConnectSession",
                "summary": "Start a BB connect session",
                "description": "Picks the registered return URL for what the device can catch: `https` (a universal link, caught with `ASWebAuthenticationSession.Callback.https(host:path:)` on iOS 17.4+) or `custom-scheme` (older iOS). The answer says exactly what to catch.",
                "security": [
                  {
                    "bearerAuth": []
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/ConnectSessionRequest"
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "The session and its hosted URL. Open the URL once; never store it.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ConnectSession"
                        }
                      }
                    },
                    "headers": {
                      "Cache-Control": {
                        "$ref": "#/components/headers/NoStore"
                      }
                    },
                    "links": {
                      "GetConnectSession": {
                        "operationId": "getConnectSession",
                        "parameters": {
                          "sessionId": "$response.body#/sessionId"
                        },
                        "description": "The session's authoritative outcome."
                      }
                    }
                  },
                  "400": {
                    "description": "The body is not exactly `{\"callback\": \"https\" | \"custom-scheme\"}`.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "invalid_request"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "413": {
                    "$ref": "#/components/responses/PayloadTooLarge"
                  },
                  "422": {
                    "description": "No return URL is registered for this callback kind.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "callback_unavailable"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "429": {
                    "description": "`provider_rate_limited`: BB is rate limiting; `rate_limited`: this user sent more requests than the per-user limit allows. Retry after `Retry-After` seconds.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "provider_rate_limited",
                                    "rate_limited"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    },
                    "headers": {
                      "Retry-After": {
                        "$ref": "#/components/headers/RetryAfter"
                      }
                    }
                  },
                  "502": {
                    "description": "BB could not be reached, answered with an error, or refused the request.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "provider_unavailable",
                                    "provider_rejected"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "503": {
                    "description": "BB timed out, or the backend is briefly unavailable. Retry after `Retry-After` seconds.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "provider_timeout",
                                    "service_unavailable"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    },
                    "headers": {
                      "Retry-After": {
                        "$ref": "#/components/headers/RetryAfter"
                      }
                    }
                  }
                }
              }
            },
            "/v2/connect-sessions/{sessionId}": {
              "get": {
                "tags": [
                  "connect"
                ],
                "operationId": "getConnectSession",
                "summary": "A connect session's outcome",
                "description": "Authoritative, whatever the return link said. A session created by another user is a 404.",
                "security": [
                  {
                    "bearerAuth": []
                  }
                ],
                "parameters": [
                  {
                    "name": "sessionId",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string",
                      "minLength": 1
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The session.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ConnectSessionStatus"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "description": "No such session for this user.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "not_found"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "429": {
                    "$ref": "#/components/responses/RateLimited"
                  },
                  "503": {
                    "$ref": "#/components/responses/ServiceUnavailable"
                  }
                }
              }
            },
            "/webhooks/privue": {
              "post": {
                "tags": [
                  "webhooks"
                ],
                "operationId": "receivePrivueWebhook",
                "summary": "Privue webhook deliveries (`verification.updated`)",
                "description": "A Standard Webhooks receiver: the signature over the raw body and the timestamp are verified first, then the envelope is parsed strictly, stored by `webhook-id` (a redelivery is acknowledged and not applied again) and applied. Called by the provider, never by the app.",
                "parameters": [
                  {
                    "name": "webhook-id",
                    "in": "header",
                    "required": true,
                    "schema": {
                      "type": "string",
                      "minLength": 1
                    }
                  },
                  {
                    "name": "webhook-timestamp",
                    "in": "header",
                    "required": true,
                    "description": "Unix seconds; deliveries outside the tolerance are refused.",
                    "schema": {
                      "type": "string",
                      "pattern": "^[0-9]+$"
                    }
                  },
                  {
                    "name": "webhook-signature",
                    "in": "header",
                    "required": true,
                    "description": "Space-separated `v1,<base64 HMAC-SHA256>` signatures.",
                    "schema": {
                      "type": "string",
                      "minLength": 1
                    }
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/WebhookEnvelope"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Stored (`accepted`) or already stored (`duplicate`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/WebhookAck"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Standard Webhooks headers missing or malformed, or the payload is not a known event shape.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "webhook_malformed"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "description": "The signature or timestamp could not be verified.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "webhook_rejected"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/PayloadTooLarge"
                  },
                  "503": {
                    "$ref": "#/components/responses/ServiceUnavailable"
                  }
                }
              }
            },
            "/webhooks/bb": {
              "post": {
                "tags": [
                  "webhooks"
                ],
                "operationId": "receiveBBWebhook",
                "summary": "BB webhook deliveries (`connect_session.updated`)",
                "description": "A Standard Webhooks receiver: the signature over the raw body and the timestamp are verified first, then the envelope is parsed strictly, stored by `webhook-id` (a redelivery is acknowledged and not applied again) and applied. Called by the provider, never by the app.",
                "parameters": [
                  {
                    "name": "webhook-id",
                    "in": "header",
                    "required": true,
                    "schema": {
                      "type": "string",
                      "minLength": 1
                    }
                  },
                  {
                    "name": "webhook-timestamp",
                    "in": "header",
                    "required": true,
                    "description": "Unix seconds; deliveries outside the tolerance are refused.",
                    "schema": {
                      "type": "string",
                      "pattern": "^[0-9]+$"
                    }
                  },
                  {
                    "name": "webhook-signature",
                    "in": "header",
                    "required": true,
                    "description": "Space-separated `v1,<base64 HMAC-SHA256>` signatures.",
                    "schema": {
                      "type": "string",
                      "minLength": 1
                    }
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/WebhookEnvelope"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Stored (`accepted`) or already stored (`duplicate`).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/WebhookAck"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Standard Webhooks headers missing or malformed, or the payload is not a known event shape.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "webhook_malformed"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "401": {
                    "description": "The signature or timestamp could not be verified.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "webhook_rejected"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "413": {
                    "$ref": "#/components/responses/PayloadTooLarge"
                  },
                  "503": {
                    "$ref": "#/components/responses/ServiceUnavailable"
                  }
                }
              }
            },
            "/bb-callback": {
              "get": {
                "tags": [
                  "landing"
                ],
                "operationId": "getConnectReturnLanding",
                "summary": "Landing page at BB's https return path",
                "description": "The landing page a browser shows when the return link did not open the app (issue 22). Served at exactly the registered path of `bb.returnURLs.https` (this path in `baton serve --sandbox`; each deployment's own path otherwise), on every host that reaches the backend. One sentence and one large \"Return to the app\" link to `https://<returnLanding.openHost><path>` without query or fragment (on the open host itself, back to the return host), the custom-scheme fallback where one is registered, an Android `intent:` link naming the package, and `returnLanding.storeFallbackText`. The page is identical whatever query or fragment the provider appended; neither is read, echoed, stored or logged. No script loads or runs.",
                "responses": {
                  "200": {
                    "description": "The landing page.",
                    "content": {
                      "text/html": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    },
                    "headers": {
                      "Cache-Control": {
                        "description": "Always `no-store`.",
                        "schema": {
                          "type": "string",
                          "const": "no-store"
                        }
                      },
                      "Referrer-Policy": {
                        "schema": {
                          "type": "string",
                          "const": "no-referrer"
                        }
                      },
                      "X-Robots-Tag": {
                        "schema": {
                          "type": "string",
                          "const": "noindex, nofollow"
                        }
                      },
                      "Content-Security-Policy": {
                        "description": "`default-src 'none'`, `script-src 'none'`, and only the page's own inline style by its hash.",
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/kyc/done": {
              "get": {
                "tags": [
                  "landing"
                ],
                "operationId": "getVerificationReturnLanding",
                "summary": "Landing page at Privue's return path",
                "description": "The landing page a browser shows when the return link did not open the app (issue 22). Served at exactly the registered path of `privue.returnURL` (this path in `baton serve --sandbox`; each deployment's own path otherwise), on every host that reaches the backend. One sentence and one large \"Return to the app\" link to `https://<returnLanding.openHost><path>` without query or fragment (on the open host itself, back to the return host), the custom-scheme fallback where one is registered, an Android `intent:` link naming the package, and `returnLanding.storeFallbackText`. The page is identical whatever query or fragment the provider appended; neither is read, echoed, stored or logged. No script loads or runs.",
                "responses": {
                  "200": {
                    "description": "The landing page.",
                    "content": {
                      "text/html": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    },
                    "headers": {
                      "Cache-Control": {
                        "description": "Always `no-store`.",
                        "schema": {
                          "type": "string",
                          "const": "no-store"
                        }
                      },
                      "Referrer-Policy": {
                        "schema": {
                          "type": "string",
                          "const": "no-referrer"
                        }
                      },
                      "X-Robots-Tag": {
                        "schema": {
                          "type": "string",
                          "const": "noindex, nofollow"
                        }
                      },
                      "Content-Security-Policy": {
                        "description": "`default-src 'none'`, `script-src 'none'`, and only the page's own inline style by its hash.",
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/.well-known/apple-app-site-association": {
              "get": {
                "tags": [
                  "well-known"
                ],
                "operationId": "getAppleAppSiteAssociation",
                "summary": "Apple app site association",
                "description": "Generated from `apps.apple.appIDs` and the https return paths (BB's universal link, Privue's return URL): `applinks` and `webcredentials`.",
                "responses": {
                  "200": {
                    "description": "The association file.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/AppleAppSiteAssociation"
                        }
                      }
                    },
                    "headers": {
                      "Cache-Control": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/.well-known/assetlinks.json": {
              "get": {
                "tags": [
                  "well-known"
                ],
                "operationId": "getAssetLinks",
                "summary": "Android digital asset links",
                "description": "Generated from `apps.android`; an empty array when no Android app is configured.",
                "responses": {
                  "200": {
                    "description": "The statements.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/AssetLinks"
                        }
                      }
                    },
                    "headers": {
                      "Cache-Control": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/assets/{file}": {
              "get": {
                "tags": [
                  "catalog"
                ],
                "operationId": "getAsset",
                "summary": "A mirrored catalog image",
                "description": "Catalog images mirrored to a neutral partner-owned URL, named by the SHA-256 of their bytes; immutable.",
                "parameters": [
                  {
                    "name": "file",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string",
                      "pattern": "^[0-9a-f]{64}\\.(png|jpg|webp)$"
                    }
                  },
                  {
                    "name": "If-None-Match",
                    "in": "header",
                    "required": false,
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The image bytes.",
                    "content": {
                      "image/png": {
                        "schema": {
                          "type": "string",
                          "contentMediaType": "image/png"
                        }
                      },
                      "image/jpeg": {
                        "schema": {
                          "type": "string",
                          "contentMediaType": "image/jpeg"
                        }
                      },
                      "image/webp": {
                        "schema": {
                          "type": "string",
                          "contentMediaType": "image/webp"
                        }
                      }
                    },
                    "headers": {
                      "ETag": {
                        "required": true,
                        "schema": {
                          "type": "string"
                        }
                      },
                      "Cache-Control": {
                        "required": true,
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "304": {
                    "description": "Not modified (`If-None-Match` matched the ETag)."
                  },
                  "404": {
                    "description": "No such image.",
                    "content": {
                      "application/problem+json": {
                        "schema": {
                          "allOf": [
                            {
                              "$ref": "#/components/schemas/Problem"
                            },
                            {
                              "properties": {
                                "code": {
                                  "enum": [
                                    "not_found"
                                  ]
                                }
                              }
                            }
                          ]
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/ServiceUnavailable"
                  }
                }
              }
            },
            "/healthz": {
              "get": {
                "tags": [
                  "operations"
                ],
                "operationId": "getHealth",
                "summary": "Liveness",
                "responses": {
                  "200": {
                    "description": "The process is serving.",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/readyz": {
              "get": {
                "tags": [
                  "operations"
                ],
                "operationId": "getReadiness",
                "summary": "Readiness",
                "description": "Ready when the store answers and its migrations are applied.",
                "responses": {
                  "200": {
                    "description": "Ready.",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "503": {
                    "description": "Not ready (the store is unreachable).",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/metrics": {
              "get": {
                "tags": [
                  "operations"
                ],
                "operationId": "getMetrics",
                "summary": "Prometheus metrics",
                "responses": {
                  "200": {
                    "description": "Counters in the Prometheus text format 0.0.4.",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/openapi.json": {
              "get": {
                "tags": [
                  "operations"
                ],
                "operationId": "getOpenAPIDocument",
                "summary": "This document",
                "responses": {
                  "200": {
                    "description": "The OpenAPI 3.1 document.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object"
                        }
                      }
                    }
                  }
                }
              }
            }
          },
          "components": {
            "securitySchemes": {
              "bearerAuth": {
                "type": "http",
                "scheme": "bearer",
                "description": "An app token signed by the backend (`baton token --user ID` in development)."
              }
            },
            "headers": {
              "RetryAfter": {
                "required": true,
                "description": "Seconds to wait before retrying.",
                "schema": {
                  "type": "string",
                  "pattern": "^[0-9]+$"
                }
              },
              "NoStore": {
                "required": true,
                "description": "The response carries a journey URL: never cached.",
                "schema": {
                  "type": "string",
                  "const": "no-store"
                }
              }
            },
            "responses": {
              "Unauthorized": {
                "description": "No valid bearer token. Which check failed is not said.",
                "headers": {
                  "WWW-Authenticate": {
                    "required": true,
                    "schema": {
                      "type": "string",
                      "const": "Bearer"
                    }
                  }
                },
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "allOf": [
                        {
                          "$ref": "#/components/schemas/Problem"
                        },
                        {
                          "properties": {
                            "code": {
                              "const": "unauthorized"
                            }
                          }
                        }
                      ]
                    }
                  }
                }
              },
              "RateLimited": {
                "description": "This user sent more provider-backed requests than the per-user limit allows. Retry after `Retry-After` seconds.",
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "allOf": [
                        {
                          "$ref": "#/components/schemas/Problem"
                        },
                        {
                          "properties": {
                            "code": {
                              "enum": [
                                "rate_limited"
                              ]
                            }
                          }
                        }
                      ]
                    }
                  }
                },
                "headers": {
                  "Retry-After": {
                    "$ref": "#/components/headers/RetryAfter"
                  }
                }
              },
              "ServiceUnavailable": {
                "description": "The backend's store is briefly unavailable. Retry after `Retry-After` seconds.",
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "allOf": [
                        {
                          "$ref": "#/components/schemas/Problem"
                        },
                        {
                          "properties": {
                            "code": {
                              "enum": [
                                "service_unavailable"
                              ]
                            }
                          }
                        }
                      ]
                    }
                  }
                },
                "headers": {
                  "Retry-After": {
                    "$ref": "#/components/headers/RetryAfter"
                  }
                }
              },
              "PayloadTooLarge": {
                "description": "The request body is larger than the server accepts (1 MiB).",
                "content": {
                  "application/problem+json": {
                    "schema": {
                      "allOf": [
                        {
                          "$ref": "#/components/schemas/Problem"
                        },
                        {
                          "properties": {
                            "code": {
                              "enum": [
                                "payload_too_large"
                              ]
                            }
                          }
                        }
                      ]
                    }
                  }
                }
              }
            },
            "schemas": {
              "Problem": {
                "type": "object",
                "description": "An RFC 9457 problem. `code` is stable; `detail` is a fixed human phrase and never echoes request or provider values.",
                "required": [
                  "type",
                  "title",
                  "status",
                  "code"
                ],
                "properties": {
                  "type": {
                    "type": "string"
                  },
                  "title": {
                    "type": "string"
                  },
                  "status": {
                    "type": "integer",
                    "minimum": 400,
                    "maximum": 599
                  },
                  "code": {
                    "type": "string",
                    "pattern": "^[a-z][a-z0-9_]*$"
                  },
                  "detail": {
                    "type": "string"
                  },
                  "requestId": {
                    "type": "string",
                    "description": "The `x-request-id` of an unexpected failure, for support."
                  }
                },
                "additionalProperties": false
              },
              "CatalogResponse": {
                "type": "object",
                "required": [
                  "items"
                ],
                "additionalProperties": false,
                "properties": {
                  "items": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/CatalogCard"
                    }
                  }
                }
              },
              "CatalogCard": {
                "type": "object",
                "description": "One card: presentation fields rendered in `presentation_contract.block_order`, then the handoff's action(s). Clients ignore unknown top-level members.",
                "required": [
                  "id",
                  "presentation_contract",
                  "title",
                  "summary",
                  "priceText",
                  "image",
                  "handoff"
                ],
                "properties": {
                  "id": {
                    "type": "string",
                    "minLength": 1,
                    "description": "The catalog item id, sent back as `catalogItemId` when sharing."
                  },
                  "presentation_contract": {
                    "type": "object",
                    "required": [
                      "block_order"
                    ],
                    "properties": {
                      "block_order": {
                        "type": "array",
                        "items": {
                          "enum": [
                            "image",
                            "title",
                            "summary",
                            "price"
                          ]
                        },
                        "minItems": 4,
                        "maxItems": 4,
                        "uniqueItems": true
                      }
                    }
                  },
                  "title": {
                    "type": "string",
                    "minLength": 1
                  },
                  "summary": {
                    "type": "string",
                    "minLength": 1
                  },
                  "priceText": {
                    "type": "string",
                    "minLength": 1
                  },
                  "image": {
                    "type": "object",
                    "required": [
                      "url",
                      "alt"
                    ],
                    "properties": {
                      "url": {
                        "type": "string",
                        "format": "uri",
                        "pattern": "^(https://[^/?#@]+|http://(127(\\.[0-9]{1,3}){3}|localhost|\\[::1\\])(:[0-9]+)?)([/?#]|$)",
                        "description": "An absolute `https` URL without userinfo (loopback `http` only from `baton serve --sandbox`)."
                      },
                      "alt": {
                        "type": "string",
                        "minLength": 1
                      }
                    }
                  },
                  "handoff": {
                    "$ref": "#/components/schemas/MobileHandoff"
                  }
                }
              },
              "MobileHandoff": {
                "description": "The closed union of seed 000. Decoders reject an unknown `mode`, a changed literal, a non-https URL and any extra member.",
                "oneOf": [
                  {
                    "$ref": "#/components/schemas/NeutralOnlyHandoff"
                  },
                  {
                    "$ref": "#/components/schemas/ShareOrNeutralHandoff"
                  }
                ],
                "discriminator": {
                  "propertyName": "mode",
                  "mapping": {
                    "neutral_only": "#/components/schemas/NeutralOnlyHandoff",
                    "share_or_neutral": "#/components/schemas/ShareOrNeutralHandoff"
                  }
                }
              },
              "NeutralOnlyHandoff": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "mode",
                  "heading",
                  "body",
                  "actionLabel",
                  "url"
                ],
                "properties": {
                  "mode": {
                    "const": "neutral_only"
                  },
                  "heading": {
                    "type": "string",
                    "minLength": 1
                  },
                  "body": {
                    "type": "string",
                    "minLength": 1
                  },
                  "actionLabel": {
                    "const": "Continue to Chia"
                  },
                  "url": {
                    "type": "string",
                    "format": "uri",
                    "pattern": "^(https://[^/?#@]+|http://(127(\\.[0-9]{1,3}){3}|localhost|\\[::1\\])(:[0-9]+)?)([/?#]|$)",
                    "description": "An absolute `https` URL without userinfo (loopback `http` only from `baton serve --sandbox`)."
                  }
                }
              },
              "ShareOrNeutralHandoff": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "mode",
                  "heading",
                  "body",
                  "recipient",
                  "dataShared",
                  "purpose",
                  "compensationDisclosure",
                  "policyUrls",
                  "primary",
                  "secondary"
                ],
                "properties": {
                  "mode": {
                    "const": "share_or_neutral"
                  },
                  "heading": {
                    "type": "string",
                    "minLength": 1
                  },
                  "body": {
                    "type": "string",
                    "minLength": 1
                  },
                  "recipient": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": [
                      "legal_name",
                      "privacy_contact"
                    ],
                    "properties": {
                      "legal_name": {
                        "type": "string",
                        "minLength": 1
                      },
                      "privacy_contact": {
                        "type": "string",
                        "minLength": 1
                      }
                    }
                  },
                  "dataShared": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  },
                  "purpose": {
                    "type": "string"
                  },
                  "compensationDisclosure": {
                    "type": "string"
                  },
                  "policyUrls": {
                    "type": "object",
                    "additionalProperties": {
                      "type": "string",
                      "format": "uri",
                      "pattern": "^(https://[^/?#@]+|http://(127(\\.[0-9]{1,3}){3}|localhost|\\[::1\\])(:[0-9]+)?)([/?#]|$)",
                      "description": "An absolute `https` URL without userinfo (loopback `http` only from `baton serve --sandbox`)."
                    }
                  },
                  "primary": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": [
                      "actionLabel",
                      "sessionCreationPath",
                      "disclosureVersion"
                    ],
                    "properties": {
                      "actionLabel": {
                        "const": "Share selection and continue"
                      },
                      "sessionCreationPath": {
                        "const": "/v2/handoff-sessions"
                      },
                      "disclosureVersion": {
                        "type": "string",
                        "minLength": 1
                      }
                    }
                  },
                  "secondary": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": [
                      "actionLabel",
                      "url"
                    ],
                    "properties": {
                      "actionLabel": {
                        "const": "Continue without sharing"
                      },
                      "url": {
                        "type": "string",
                        "format": "uri",
                        "pattern": "^(https://[^/?#@]+|http://(127(\\.[0-9]{1,3}){3}|localhost|\\[::1\\])(:[0-9]+)?)([/?#]|$)",
                        "description": "An absolute `https` URL without userinfo (loopback `http` only from `baton serve --sandbox`)."
                      }
                    }
                  }
                }
              },
              "HandoffSessionRequest": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "catalogItemId",
                  "disclosureVersion",
                  "affirmed",
                  "affirmedAt"
                ],
                "properties": {
                  "catalogItemId": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 256
                  },
                  "disclosureVersion": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 256
                  },
                  "affirmed": {
                    "const": true
                  },
                  "affirmedAt": {
                    "type": "string",
                    "format": "date-time",
                    "description": "When the user affirmed the disclosure, RFC 3339 with upper-case `T` and `Z`, e.g. `2026-03-01T12:00:00Z`.",
                    "examples": [
                      "2026-03-01T12:00:00Z"
                    ]
                  }
                }
              },
              "HandoffSession": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "url",
                  "expiresAt"
                ],
                "properties": {
                  "url": {
                    "type": "string",
                    "format": "uri",
                    "pattern": "^(https://[^/?#@]+|http://(127(\\.[0-9]{1,3}){3}|localhost|\\[::1\\])(:[0-9]+)?)([/?#]|$)",
                    "description": "An absolute `https` URL without userinfo (loopback `http` only from `baton serve --sandbox`)."
                  },
                  "expiresAt": {
                    "type": "string",
                    "format": "date-time"
                  }
                }
              },
              "VerificationHandoffRequest": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "workflow"
                ],
                "properties": {
                  "workflow": {
                    "type": "string",
                    "minLength": 1,
                    "description": "One of the configured `privue.workflows`.",
                    "examples": [
                      "merchant-onboarding"
                    ]
                  }
                }
              },
              "VerificationHandoff": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "url",
                  "expiresInSeconds"
                ],
                "properties": {
                  "url": {
                    "type": "string",
                    "format": "uri",
                    "pattern": "^(https://[^/?#@]+|http://(127(\\.[0-9]{1,3}){3}|localhost|\\[::1\\])(:[0-9]+)?)([/?#]|$)",
                    "description": "The single-use journey URL (its fragment carries the ticket)."
                  },
                  "expiresInSeconds": {
                    "type": "integer",
                    "minimum": 0
                  }
                }
              },
              "VerificationStatus": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "verificationId",
                  "status"
                ],
                "properties": {
                  "verificationId": {
                    "type": "string",
                    "minLength": 1
                  },
                  "status": {
                    "type": "string",
                    "minLength": 1,
                    "description": "Privue's status, e.g. `pending`, `in_progress`, `approved`, `rejected`, `needs_review`.",
                    "examples": [
                      "pending",
                      "approved"
                    ]
                  }
                }
              },
              "ConnectSessionRequest": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "callback"
                ],
                "properties": {
                  "callback": {
                    "enum": [
                      "https",
                      "custom-scheme"
                    ]
                  }
                }
              },
              "ConnectSession": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "sessionId",
                  "hostedUrl",
                  "callback"
                ],
                "properties": {
                  "sessionId": {
                    "type": "string",
                    "minLength": 1
                  },
                  "hostedUrl": {
                    "type": "string",
                    "format": "uri",
                    "pattern": "^(https://[^/?#@]+|http://(127(\\.[0-9]{1,3}){3}|localhost|\\[::1\\])(:[0-9]+)?)([/?#]|$)",
                    "description": "An absolute `https` URL without userinfo (loopback `http` only from `baton serve --sandbox`)."
                  },
                  "callback": {
                    "description": "What the app catches the return with.",
                    "oneOf": [
                      {
                        "type": "object",
                        "additionalProperties": false,
                        "required": [
                          "kind",
                          "host",
                          "path"
                        ],
                        "properties": {
                          "kind": {
                            "const": "https"
                          },
                          "host": {
                            "type": "string",
                            "minLength": 1
                          },
                          "path": {
                            "type": "string"
                          }
                        }
                      },
                      {
                        "type": "object",
                        "additionalProperties": false,
                        "required": [
                          "kind",
                          "scheme"
                        ],
                        "properties": {
                          "kind": {
                            "const": "custom-scheme"
                          },
                          "scheme": {
                            "type": "string",
                            "minLength": 1
                          }
                        }
                      }
                    ]
                  }
                }
              },
              "ConnectSessionStatus": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "sessionId",
                  "status"
                ],
                "properties": {
                  "sessionId": {
                    "type": "string",
                    "minLength": 1
                  },
                  "status": {
                    "enum": [
                      "pending",
                      "ok",
                      "error",
                      "cancelled",
                      "expired"
                    ]
                  },
                  "connectionId": {
                    "type": "string",
                    "minLength": 1,
                    "description": "Present once the status is `ok`."
                  },
                  "error": {
                    "type": "string",
                    "minLength": 1,
                    "description": "BB's error code, when BB gave one."
                  }
                }
              },
              "WebhookEnvelope": {
                "type": "object",
                "required": [
                  "type",
                  "timestamp",
                  "data"
                ],
                "properties": {
                  "type": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128
                  },
                  "timestamp": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "data": {
                    "type": "object"
                  }
                }
              },
              "WebhookAck": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "status"
                ],
                "properties": {
                  "status": {
                    "enum": [
                      "accepted",
                      "duplicate"
                    ]
                  }
                }
              },
              "AppleAppSiteAssociation": {
                "type": "object",
                "required": [
                  "applinks",
                  "webcredentials"
                ],
                "properties": {
                  "applinks": {
                    "type": "object",
                    "required": [
                      "apps",
                      "details"
                    ],
                    "properties": {
                      "apps": {
                        "type": "array",
                        "maxItems": 0
                      },
                      "details": {
                        "type": "array",
                        "items": {
                          "type": "object",
                          "required": [
                            "appIDs",
                            "components"
                          ],
                          "properties": {
                            "appIDs": {
                              "type": "array",
                              "items": {
                                "type": "string"
                              }
                            },
                            "components": {
                              "type": "array",
                              "items": {
                                "type": "object",
                                "required": [
                                  "/"
                                ],
                                "properties": {
                                  "/": {
                                    "type": "string"
                                  }
                                }
                              }
                            }
                          }
                        }
                      }
                    }
                  },
                  "webcredentials": {
                    "type": "object",
                    "required": [
                      "apps"
                    ],
                    "properties": {
                      "apps": {
                        "type": "array",
                        "items": {
                          "type": "string"
                        }
                      }
                    }
                  }
                }
              },
              "AssetLinks": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": [
                    "relation",
                    "target"
                  ],
                  "properties": {
                    "relation": {
                      "type": "array",
                      "items": {
                        "type": "string"
                      }
                    },
                    "target": {
                      "type": "object",
                      "required": [
                        "namespace",
                        "package_name",
                        "sha256_cert_fingerprints"
                      ],
                      "properties": {
                        "namespace": {
                          "const": "android_app"
                        },
                        "package_name": {
                          "type": "string",
                          "minLength": 1
                        },
                        "sha256_cert_fingerprints": {
                          "type": "array",
                          "items": {
                            "type": "string",
                            "pattern": "^([0-9A-Fa-f]{2}:){31}[0-9A-Fa-f]{2}$"
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
        """#
}
